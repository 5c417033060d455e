import { auditEveryPage } from './a11y-audit';

auditEveryPage(['staff', 'admin']);
