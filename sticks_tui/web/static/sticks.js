// sticks-tui's page script. It runs after the terminal client (/client.js, textual-serve's
// xterm.js client served by this server) and:
//  - points the client at this server's websocket, whatever address the page was opened with;
//  - waits for the page's own font before the terminal measures its cells;
//  - picks the font size that fits the app to the window (at least 80x24 cells, 100x30 when the
//    window allows: a big window gets a big font), unless the address says ?fontsize=N; the projector's
//    page (the class view, data-role="projector") reads from the back of a room: at least 24 px
//    whenever the window gives that 80x22 cells (1280x720: 24 px, 91x22; 1920x1080: 31 px, 106x26);
//  - gives the terminal the keyboard once its connection is open (a focus sent before that throws);
//  - says why a session ended (the app quit, or the class is full);
//  - offers window.sticksScreenText(): the screen as lines of text (for tests and benchmarks).
"use strict";
(function () {
  const NEEDED = { cols: 80, rows: 24 };      // the app's smallest screen
  const PREFERRED = { cols: 100, rows: 30 };  // room for the hats beside the board
  const LARGEST = 64, SMALLEST = 6;  // a projector's 1920x1080 gets about 30 px: a room can read it
  // The projector's page: the class view is laid out for 80x22 and up (ui/screens/class_view.py); it takes
  // the largest font that gives it 100x25 cells, else the largest at or above READABLE that gives 80x22.
  const PROJECTOR = { cols: 80, rows: 22 }, PROJECTOR_PREFERRED = { cols: 100, rows: 25 }, READABLE = 24;
  const FONT = "'Roboto Mono', Monaco, 'Courier New', monospace";  // the client's own
  const askedSize = new URLSearchParams(window.location.search).has("fontsize");

  // A terminal cell at `size` px, measured as xterm.js does (a row of W's, line-height normal),
  // rounded up to whole device pixels so the estimate never promises more cells than the fit gives.
  function cellAt(size) {
    const probe = document.createElement("span");
    probe.style.cssText = "position:absolute;visibility:hidden;white-space:pre;line-height:normal;" +
      "font-family:" + FONT + ";font-size:" + size + "px";
    probe.textContent = "W".repeat(32);
    document.body.appendChild(probe);
    const box = probe.getBoundingClientRect();
    probe.remove();
    const dpr = window.devicePixelRatio || 1;
    return { width: Math.ceil(box.width / 32 * dpr) / dpr, height: Math.ceil(box.height * dpr) / dpr };
  }

  // The largest size that shows PREFERRED cells in the element; else the largest that shows NEEDED.
  // The projector's page: its own sizes, at READABLE px or more; a window too small for that gets the
  // pupils' rule (a smaller font, and the whole app fits).
  function fittingSize(element) {
    if (element.dataset.role === "projector") {
      const size = projectorSize(element);
      if (size !== null) return size;
    }
    return pupilSize(element);
  }

  function projectorSize(element) {
    const box = element.getBoundingClientRect();
    let fallback = null;
    for (let size = LARGEST; size >= READABLE; size--) {
      const cell = cellAt(size);
      const cols = Math.floor(box.width / cell.width), rows = Math.floor(box.height / cell.height);
      if (cols >= PROJECTOR_PREFERRED.cols && rows >= PROJECTOR_PREFERRED.rows) return size;
      if (fallback === null && cols >= PROJECTOR.cols && rows >= PROJECTOR.rows) fallback = size;
    }
    return fallback;
  }

  function pupilSize(element) {
    const box = element.getBoundingClientRect();
    let needed = SMALLEST;
    for (let size = LARGEST; size >= SMALLEST; size--) {
      const cell = cellAt(size);
      const cols = Math.floor(box.width / cell.width), rows = Math.floor(box.height / cell.height);
      if (cols >= PREFERRED.cols && rows >= PREFERRED.rows) return size;
      if (needed === SMALLEST && cols >= NEEDED.cols && rows >= NEEDED.rows) needed = size;
    }
    return needed;
  }

  // After the connection opens: if the terminal still has fewer cells than the app needs (the
  // estimate was off by a pixel), step the font down until it fits.
  function shrinkToFit(client) {
    let size = Number(client.terminal.options.fontSize);
    const needed = client.element.dataset.role === "projector" && size >= READABLE ? PROJECTOR : NEEDED;
    while ((client.terminal.cols < needed.cols || client.terminal.rows < needed.rows) && size > SMALLEST) {
      size -= 1;
      client.terminal.options.fontSize = size;
      client.fit();
    }
  }

  function isOpen(client) {
    return client.socket && client.socket.readyState === WebSocket.OPEN;
  }

  const clientOnload = window.onload;
  window.onload = async function (event) {
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    const terminals = document.querySelectorAll(".textual-terminal");
    terminals.forEach(function (element) {
      element.dataset.sessionWebsocketUrl = scheme + window.location.host + (element.dataset.websocketPath || "/ws");
    });
    try {
      await Promise.race([
        document.fonts.load('16px "Roboto Mono"'),
        new Promise(function (resolve) { setTimeout(resolve, 8000); }),  // a slow machine: wait longer
      ]);
    } catch (error) { /* a missing font falls back to the browser's monospace */ }
    if (!askedSize) {
      terminals.forEach(function (element) { element.dataset.fontSize = String(fittingSize(element)); });
    }
    if (clientOnload) clientOnload.call(window, event);
    (window.sticksClients || []).forEach(function (client) {
      whenConnected(client, function () {
        if (!askedSize) shrinkToFit(client);
        if (client.terminal) client.terminal.focus(); // keys work at once, without a click first
      });
      watchClose(client);
    });
    // a window made smaller or larger later: the font follows (the client then fits the cells)
    const clientResize = window.onresize;
    window.onresize = function (resizeEvent) {
      (window.sticksClients || []).forEach(function (client) {
        if (!askedSize && isOpen(client)) {
          client.terminal.options.fontSize = fittingSize(client.element);
        }
      });
      if (clientResize) clientResize.call(window, resizeEvent);
      (window.sticksClients || []).forEach(function (client) {
        if (!askedSize && isOpen(client)) shrinkToFit(client);
      });
    };
  };

  // Run `then` once the client's websocket is open (the client makes it in connect()).
  function whenConnected(client, then) {
    let tries = 0;
    const attach = function () {
      if (!client.socket) {
        if (tries++ < 100) setTimeout(attach, 50);
        return;
      }
      if (client.socket.readyState === WebSocket.OPEN) then();
      else client.socket.addEventListener("open", function () { then(); }, { once: true });
    };
    attach();
  }

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
