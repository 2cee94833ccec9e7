/// <reference lib="dom" />
// The API reference page's browser code: starts Redoc (served by the mock) on the badged spec, light or dark.

/**
 * Renders the spec named by `#redoc[data-spec]` with Redoc, in the reader's color scheme, with
 * system fonts only (nothing is fetched from elsewhere).
 *
 * @example
 * // Served as `(${referenceMain.toString()})();` after Redoc's bundle.
 */
export function referenceMain(): void {
  const root = document.getElementById('redoc') as HTMLElement;
  const dark = matchMedia('(prefers-color-scheme: dark)').matches;
  const fonts = {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", sans-serif',
    headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", sans-serif' },
    code: { fontFamily: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace' },
  };
  const theme = dark
    ? {
        colors: {
          primary: { main: '#7aa2ff' },
          text: { primary: '#e7e9ee', secondary: '#b8bdc8' },
          border: { dark: '#444', light: '#333' },
        },
        typography: { ...fonts, links: { color: '#9db8ff' } },
        sidebar: { backgroundColor: '#16181d', textColor: '#d6d9e0' },
        rightPanel: { backgroundColor: '#0f1115', textColor: '#e7e9ee' },
        schema: { nestedBackground: '#1d2027', typeNameColor: '#b8bdc8', linesColor: '#555' },
      }
    : { typography: fonts, colors: { primary: { main: '#2f5bd3' } } };
  const redoc = (window as unknown as { Redoc: { init(...args: unknown[]): void } }).Redoc;
  redoc.init(
    root.dataset.spec,
    { theme, expandResponses: '200,201', jsonSampleExpandLevel: 3, hideDownloadButton: false },
    root,
  );
}

/**
 * The reference page's script as served.
 *
 * @example
 * referenceScript().includes('Redoc'); // true
 */
export function referenceScript(): string {
  return `"use strict";(${referenceMain.toString()})();\n`;
}
