"""The harness in the browser: pages that need no network (`page`), rich
text as HTML (`richtext`), and the match viewer (`viewer`) with the drawing
interface each game fills in (`drawing`)."""
