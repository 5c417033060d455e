import { auditEveryPage, DESKTOP } from './a11y-audit';

// One file per width, so the two audits (the longest browser tests) run side by side.
auditEveryPage(DESKTOP);
