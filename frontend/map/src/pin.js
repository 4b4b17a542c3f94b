// A clicked paper's card, pinned on the map at once (issue 42, BENCHMARKS §31f): its title, authors, journal and year
// are the hover card's, all in the browser, so the click is answered before the side panel's run comes back. It stays
// while that paper is the open one (the page's star), and goes with a click elsewhere, Escape, its × or another
// paper opened. Text from data is only ever set with textContent.

// Clicks go through the card to the map (a paper under it could not be clicked: the card took the click and did
// nothing), and the papers under it show faintly through it; its × alone takes clicks.
const CARD = "position:absolute;z-index:5;max-width:min(320px, 80%);background:rgba(255,255,255,.86);"
  + "pointer-events:none;border:1px solid #666;"
  + "border-radius:6px;padding:6px 22px 6px 8px;font-size:12px;box-shadow:0 2px 8px rgba(0,0,0,.25);color:#222";

export default class Pin {
  constructor(view) {
    this.view = view;
    this.row = null;  // the corpus row pinned (null: none)
    this.card = document.createElement("div");
    this.card.style.cssText = CARD + ";display:none";
    this.card.className = "miread-pinned";
    view.wrap.appendChild(this.card);
    this.early = undefined;
    this.earlyClick();
  }

  /** A click on a paper answered in the click's own task. regl-scatterplot selects the paper in its canvas "click"
   * handler but publishes "select" with a setTimeout that waits 1-3 drawn frames (52-238 ms, BENCHMARKS §31i); its
   * `syncEvents` option would publish every event at once, but left Compare's tall maps at the default camera. This
   * listener, added after its own, reads the new selection and answers it (the view's `selected`); the event that
   * follows for the same paper is passed over (`answered`). */
  earlyClick() {
    const v = this.view;
    v.wrap.addEventListener("pointerdown", (e) => {
      this.before = v.plot.get("selectedPoints");
      this.down = [e.clientX, e.clientY];
    }, true);
    v.wrap.addEventListener("click", (e) => this.clickOwn(e), true);  // capture: before regl-scatterplot's listener
    v.canvas.addEventListener("click", () => {
      const now = v.plot.get("selectedPoints"), was = this.before || [];
      if (v.lassoing || now.length !== 1 || (was.length === 1 && was[0] === now[0])) return;
      v.selected(now);
      this.early = now[0];
    });
  }

  /** A click on a paper with nothing selected, answered here and kept from regl-scatterplot: its own answer selects
   * the paper, which draws every point again (its selected look), and at 1,000,000 papers a frame is 1-2 s in a
   * GPU-less browser (BENCHMARKS §31t). The open paper is marked by the page's star and this card, on layers of
   * their own, so no frame of the points is needed. A click with papers selected (a lasso's), with a modifier key
   * (regl-scatterplot's merge or remove) or in a lasso mode is left to regl-scatterplot as before. */
  clickOwn(e) {
    const v = this.view, down = this.down;
    if (e.target !== v.canvas || v.mode !== "panZoom" || v.lassoing || !v.n || !down) return;
    if (e.shiftKey || e.altKey || e.ctrlKey || e.metaKey || v.plot.get("selectedPoints").length) return;
    if (Math.hypot(e.clientX - down[0], e.clientY - down[1]) >= v.plot.get("lassoMinDist")) return;  // a drag
    const i = v.plot.get("hoveredPoint");  // regl-scatterplot's own ray cast at the mouse's place
    if (!(Number.isInteger(i) && i >= 0 && i < v.n)) {  // the void: the card goes (as a deselection took it)
      if (this.row !== null) this.hide();
      return;
    }
    e.stopPropagation();
    this.before = null;
    if (this.row !== null && this.i === i) return;  // its card is pinned already: nothing new to answer
    v.selected([i]);
  }

  /** Whether `points` (a "select" event's) is the click answered already; true once. */
  answered(points) {
    if (this.early === undefined) return false;
    const same = points.length === 1 && points[0] === this.early;
    this.early = undefined;
    return same;
  }

  /** Pin the card of drawn point `i` (corpus row `row`); the page's answer for it is awaited. */
  show(i, row) {
    const t = this.view.cardText(i), card = this.card;
    this.i = i; this.row = row; this.awaiting = true;
    card.replaceChildren();
    const line = (text, css) => {
      if (text === null || text === undefined || text === "") return;
      const node = document.createElement("div");
      node.style.cssText = css;
      node.textContent = String(text);
      card.appendChild(node);
    };
    line(t.title, "font-weight:600;margin-bottom:2px");
    line(t.author, "color:#444");
    line([t.journal, t.year].filter((v) => v).join(" · "), "color:#444");
    const close = document.createElement("button");
    close.type = "button";
    close.textContent = "×";
    close.title = "Close this card";
    close.style.cssText = "position:absolute;top:2px;right:4px;border:none;background:none;font-size:15px;"
      + "cursor:pointer;color:#444;padding:0 2px;pointer-events:auto";
    close.addEventListener("click", (e) => { e.stopPropagation(); this.hide(); });
    card.appendChild(close);
    card.dataset.row = String(row);
    card.style.display = "block";
    this.view.card.style.display = "none";  // the hover card of the same paper would lie under it
    this.place();
  }

  /** Next to its point, inside the map (after a pan or zoom too). */
  place() {
    if (this.row === null) return;
    const v = this.view, card = this.card;
    const [sx, sy] = v.screen(v.x[this.i], v.y[this.i]);
    const w = v.wrap.clientWidth, h = v.wrap.clientHeight;
    const off = sx < 0 || sy < 0 || sx > w || sy > h;  // panned out of the map: hidden until it is back
    card.style.visibility = off ? "hidden" : "visible";
    card.style.left = `${Math.max(0, Math.min(sx + 14, w - card.offsetWidth - 4))}px`;
    const below = sy + 14;
    card.style.top = `${below + card.offsetHeight > h ? Math.max(0, sy - 14 - card.offsetHeight) : below}px`;
  }

  hide() {
    this.row = null;
    this.awaiting = false;
    this.card.style.display = "none";
    delete this.card.dataset.row;
  }

  /** The page's star (the open paper): the card stays with its paper and goes once another or none is open. */
  follow(star) {
    if (this.row === null) return;
    const row = star ? Number(star.row) : null;
    if (row === this.row) { this.awaiting = false; return; }
    if (!this.awaiting) this.hide();
  }
}
