import type { ClassifiedResponse, ResponseVerdict } from '@asof/http';

const RATE_THRESHOLD_PAGE = /Request Rate Threshold Exceeded/i;
const UNDECLARED_TOOL_PAGE = /Undeclared Automated Tool|declare your traffic/i;

/**
 * The SEC answers both a client over its fair-access rate and one without a declared User-Agent with 403 and
 * an HTML page, not 429: the first is a pause of both SEC hosts, the second a setting the user must fix, and
 * only the page text tells them apart (a page can carry both texts; the rate limit wins). Passed to
 * @asof/http as `classifyResponse`.
 */
export function classifySecResponse(response: ClassifiedResponse): ResponseVerdict | undefined {
  if (response.status !== 403) return undefined;
  if (RATE_THRESHOLD_PAGE.test(response.text))
    return { kind: 'rate-limited', reason: 'HTTP 403 "Request Rate Threshold Exceeded"' };
  if (UNDECLARED_TOOL_PAGE.test(response.text)) {
    return {
      kind: 'failed',
      reason:
        'HTTP 403 "Undeclared Automated Tool": the server wants a declared User-Agent; set ASOF_SEC_USER_AGENT ' +
        'to "Your Name your.email@example.com" and re-run',
    };
  }
  return undefined;
}
