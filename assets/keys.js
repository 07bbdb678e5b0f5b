() => {
  // Keyboard shortcuts of the tab on screen (listed by the "?" button, playground/ui/shared/guide.py):
  // Esc closes the shortcut list if it is open, else stops the reply (its visible Stop button);
  // Ctrl/Cmd+Enter sends from any text box of the tab; Ctrl/Cmd+Shift+Enter retries the last message
  // (not Ctrl+Shift+R: that is the browser's reload).
  const SEND = ['[id$="-input"] .submit-button', "#compare-send", "#embeddings-run", "#images-generate", "#video-submit"];
  const shown = (element) => element !== null && element.offsetParent !== null;
  const visibleButton = (selector) => [...document.querySelectorAll(selector)].find(shown);
  // Retry is caught before the message box sees the key (Shift+Enter there starts a new line).
  document.addEventListener("keydown", (event) => {
    if (!((event.ctrlKey || event.metaKey) && event.shiftKey && event.key === "Enter")) return;
    const retry = visibleButton('button[id$="-retry"]');
    if (retry) {
      event.preventDefault();
      event.stopPropagation();
      retry.click();
    }
  }, true);
  document.addEventListener("keydown", (event) => {
    const mod = event.ctrlKey || event.metaKey;
    if (event.key === "Escape") {
      const close = visibleButton("#shortcuts-close");
      const stop = visibleButton('button[id$="-stop"]');
      if (close) close.click();
      else if (stop) stop.click();
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
