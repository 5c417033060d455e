import { auditEveryPage } from './a11y-audit';

auditEveryPage(['visitor']);
