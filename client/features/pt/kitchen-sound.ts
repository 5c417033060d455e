import * as v from 'valibot';
import { storedValue } from '@/lib/stored-value';

/**
 * A kitchen screen's chime for a new ticket: off until someone on this device turns it on (a sound
 * nobody chose is a nuisance, and browsers refuse audio before a tap anyway), remembered per device.
 */
export const kitchenSound = storedValue('pt.kitchen-sound', v.boolean(), false);
