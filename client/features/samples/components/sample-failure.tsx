import { LoadError } from '@/components/load-error';
import { failureText, type Service } from '../samples.api';

/**
 * A sample read that failed, said inside the page with a retry: "Could not load the characters.
 * The Rick and Morty API cannot be reached right now." (`refresh`: the page still shows what it had).
 */
export function SampleFailure({ error, what, service, refresh = false, onRetry, retrying }: { error: unknown; what: string; service: Service; refresh?: boolean; onRetry: () => void; retrying: boolean }) {
  return (
    <LoadError onRetry={onRetry} retrying={retrying}>
      {refresh ? `Could not refresh ${what}.` : `Could not load ${what}.`} {failureText(error, service)}
    </LoadError>
  );
}
