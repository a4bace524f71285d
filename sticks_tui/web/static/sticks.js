// sticks-tui's page script. It runs after the terminal client (/client.js, textual-serve's
// xterm.js client served by this server) and:
//  - points the client at this server's websocket, whatever address the page was opened with;
//  - waits for the page's own font before the terminal measures its cells;
//  - gives the terminal the keyboard at once;
//  - says why a session ended (the app quit, or the class is full);
//  - offers window.sticksScreenText(): the screen as lines of text (for tests and benchmarks).
"use strict";
(function () {
  const clientOnload = window.onload;
  window.onload = async function (event) {
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    document.querySelectorAll(".textual-terminal").forEach(function (element) {
      element.dataset.sessionWebsocketUrl = scheme + window.location.host + "/ws";
    });
    try {
      await Promise.race([
        document.fonts.load('16px "Roboto Mono"'),
        new Promise(function (resolve) { setTimeout(resolve, 8000); }),  // a slow machine: wait longer
      ]);
    } catch (error) { /* a missing font falls back to the browser's monospace */ }
    if (clientOnload) clientOnload.call(window, event);
    (window.sticksClients || []).forEach(function (client) {
      watchClose(client);
      if (client.terminal) client.terminal.focus(); // keys work at once, without a click first
    });
  };

  function watchClose(client) {
    let tries = 0;
    const attach = function () {
      if (!client.socket) {
        if (tries++ < 100) setTimeout(attach, 50);
        return;
      }
      client.socket.addEventListener("close", function (event) {
        const message = document.getElementById("closed-message");
        if (message && event.code === 4001 && event.reason) {
          message.textContent = event.reason + " Try again when someone closes their tab.";
        } else if (message && event.code === 1001 && event.reason) {
          message.textContent = event.reason;
        }
        document.body.dataset.closeCode = String(event.code);
      });
    };
    attach();
  }

  window.sticksScreenText = function () {
    const client = (window.sticksClients || [])[0];
    if (!client || !client.terminal) return null;
    const buffer = client.terminal.buffer.active;
    const lines = [];
    for (let row = 0; row < client.terminal.rows; row++) {
      const line = buffer.getLine(buffer.viewportY + row);
      lines.push(line ? line.translateToString(true) : "");
    }
    return lines.join("\n");
  };

  // Where cell (col, row) is on the page, in CSS pixels (its centre).
  window.sticksCellCentre = function (col, row) {
    const client = (window.sticksClients || [])[0];
    if (!client || !client.terminal) return null;
    const screen = client.terminal.element.querySelector(".xterm-screen");
    const box = screen.getBoundingClientRect();
    const width = box.width / client.terminal.cols;
    const height = box.height / client.terminal.rows;
    return { x: box.left + (col + 0.5) * width, y: box.top + (row + 0.5) * height };
  };
})();
