() => {
  // Keyboard shortcuts of the tab on screen (listed by the "?" button, playground/ui/shared/guide.py):
  // Esc stops the reply (its visible Stop button); Ctrl/Cmd+Enter sends from any text box of the tab;
  // Ctrl/Cmd+Shift+R retries the last message.
  const SEND = ['[id$="-input"] .submit-button', "#compare-send", "#embeddings-run", "#images-generate", "#video-submit"];
  const shown = (element) => element !== null && element.offsetParent !== null;
  const visibleButton = (selector) => [...document.querySelectorAll(selector)].find(shown);
  document.addEventListener("keydown", (event) => {
    const mod = event.ctrlKey || event.metaKey;
    if (event.key === "Escape") {
      const stop = visibleButton('button[id$="-stop"]');
      if (stop) stop.click();
      return;
    }
    if (mod && event.shiftKey && (event.key === "R" || event.key === "r")) {
      const retry = visibleButton('button[id$="-retry"]');
      if (retry) {
        event.preventDefault();
        retry.click();
      }
      return;
    }
    if (mod && event.key === "Enter") {
      // The message box sends on Enter by itself: leave it to do so once.
      if (event.target.closest && event.target.closest('[id$="-input"]')) return;
      const send = SEND.map(visibleButton).find(Boolean);
      if (send) {
        event.preventDefault();
        send.click();
      }
    }
  });
}
