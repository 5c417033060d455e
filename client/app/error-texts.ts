/** The error screens' banners, as the spec words them. */
export const NOT_FOUND_TEXT = 'Page not found.';
export const FORBIDDEN_TEXT = 'You do not have access to this page.';
export const ERROR_TEXT = 'An error occured while processing your request.'; // spelling as the spec gives it
/** A 503: the service (its database) is away for a moment; the page tries again by itself. */
export const UNAVAILABLE_TEXT = 'The service is briefly unavailable.';
