import 'react-router';

// Types `context` of loaders/actions/middleware as a RouterContextProvider, so middleware can set the signed-in user for the loaders below it.
declare module 'react-router' {
  interface Future {
    v8_middleware: true;
  }
}
