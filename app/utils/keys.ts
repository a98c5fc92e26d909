// Small rules the pages' keyboard shortcuts share (the board's, the task panel's Esc).

/** Inputs that take no typed text: a letter pressed on one (a ticked checkbox) is the page's. */
const NOT_TYPED = ['checkbox', 'radio', 'button', 'submit', 'reset'].map((type) => `[type="${type}"]`);

/** Whether a key press is meant for a field rather than for the page. */
export function typing(target: EventTarget | null): boolean {
  return (
    target instanceof Element &&
    target.closest(`input:not(${NOT_TYPED.join(', ')}), textarea, select, [contenteditable="true"]`) !== null
  );
}

/** Whether a key press carries a modifier that makes it the browser's or the system's shortcut. */
export function modified(event: { metaKey: boolean; ctrlKey: boolean; altKey: boolean }): boolean {
  return event.metaKey || event.ctrlKey || event.altKey;
}
