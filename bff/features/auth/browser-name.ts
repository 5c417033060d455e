/**
 * A browser and its system in words ("Chrome on Android", "Safari on iPhone"), from a User-Agent
 * header, for a person's list of where they are signed in. Only the common browsers are named:
 * anything else is "Unknown browser", which is truer than a guess. The order matters: Edge and
 * Opera say "Chrome" too, Chrome says "Safari"; an iPhone or iPad that names no browser is Safari.
 */
const BROWSERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\b(Chrome|HeadlessChrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bSafari\/|\b(iPhone|iPad)\b.*\bAppleWebKit\//, 'Safari'],
];

const SYSTEMS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bWindows\b/, 'Windows'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMacintosh\b|\bMac OS X\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const first = (list: ReadonlyArray<readonly [RegExp, string]>, userAgent: string) => list.find(([pattern]) => pattern.test(userAgent))?.[1];

export function browserName(userAgent: string | null | undefined): string {
  const text = userAgent ?? '';
  const browser = first(BROWSERS, text);
  if (!browser) return 'Unknown browser';
  const system = first(SYSTEMS, text);
  return system ? `${browser} on ${system}` : browser;
}
