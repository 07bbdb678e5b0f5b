() => {
  // Esc stops the reply of the tab on screen (its visible Stop button), as in other playgrounds.
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    const stop = [...document.querySelectorAll('button[id$="-stop"]')].find((button) => button.offsetParent !== null);
    if (stop) stop.click();
  });
}
