import Bowser from 'bowser';

/** What Security → Active devices shows of a browser, read from its User-Agent header. */
export interface DeviceInfo {
  browserName: string | null;
  browserVersion: string | null;
  osName: string | null;
  /** The device's title in the list: the model for phones and tablets (iPhone), the OS for computers. */
  deviceType: string | null;
  isMobile: boolean;
}

const UNKNOWN: DeviceInfo = {
  browserName: null,
  browserVersion: null,
  osName: null,
  deviceType: null,
  isMobile: false,
};

/**
 * Parsed with bowser (MIT, small, maintained); ua-parser-js 2 is AGPL and its MIT 1.x line is no
 * longer developed. Anything unreadable is simply unknown: the list then says "Desktop device".
 */
export function parseUserAgent(userAgent: string | null): DeviceInfo {
  const ua = userAgent?.slice(0, 1024).trim();
  if (!ua) return UNKNOWN;
  let parsed: Bowser.Parser.ParsedResult;
  try {
    parsed = Bowser.parse(ua);
  } catch {
    return UNKNOWN;
  }
  const type = parsed.platform.type;
  const isMobile = type === 'mobile' || type === 'tablet';
  const osName = parsed.os.name || null;
  return {
    browserName: parsed.browser.name || null,
    browserVersion: parsed.browser.version || null,
    osName,
    deviceType: (isMobile ? parsed.platform.model || osName : osName) ?? null,
    isMobile,
  };
}
