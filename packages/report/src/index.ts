export { buildReport } from './build-report.ts';
export { REPORT_ERRORS } from './error-codes.ts';
export { renderChartSvg } from './render-chart-svg.ts';
export { renderReportHtml } from './render-report-html.ts';
