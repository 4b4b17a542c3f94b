// The Colour by box answered in the browser (issue 42, BENCHMARKS §31f). For the options whose colours are a column
// as it is (label columns, the year, "(none)"), the page sends each option's codes, palette and legend once
// (ui/map/colours.py puts them in the registry entry's `colours`). When the box shows another option, the map draws
// it at once from them, while the page's own run (side column, Topics over time, the link) follows; that run brings
// the same codes and palette, so it draws no second frame (applyNow compares what it would draw with what is drawn).
// The box stays the one place the colour is chosen: a reload, a link or coming back set it, the map follows.

export default class ColourFollower {
  constructor(view, registry) {
    this.view = view;
    this.registry = registry;  // the page-level registry entry of the view's hub (a function: it is looked up late)
    this.check = () => this.follow();  // (no argument: the box's own value)
    // a choice is made with a click on an option or a key (Enter) in the box: the box's value is read once React has
    // drawn it (after the event), and again on the next frame for a slow render
    this.listen = (e) => {
      // a press on an option of the open list: that option, drawn before the page's widget has even drawn it
      if (e.type === "pointerup" && e.button === 0) this.follow(this.pressed(e.target));
      setTimeout(this.check, 0); requestAnimationFrame(this.check);
    };
    for (const kind of ["click", "keydown", "pointerup"]) document.addEventListener(kind, this.listen, true);
  }

  /** The Colour by box (its input), or null. */
  box(c) { return c && c.control ? document.querySelector(`.st-key-${CSS.escape(c.control)} input`) : null; }

  /** The option pressed in the Colour by box's open list (null: the press was elsewhere). */
  pressed(target) {
    const box = this.box(this.registry().colours);
    const option = target && target.closest ? target.closest("[role=option]") : null;
    if (!box || !option || box.getAttribute("aria-expanded") !== "true") return null;
    const list = box.getAttribute("aria-controls");
    if (list && !option.closest(`[id="${CSS.escape(list)}"]`)) return null;  // another box's list
    return option.textContent.trim();
  }

  /** The option chosen (`chosen`, or the one the box shows now), drawn from the browser's codes if the map is not
   * drawn with it already. */
  follow(chosen = null) {
    const view = this.view, c = this.registry().colours;
    if (!c || !c.control || !view.n || view.rows || c.key !== view.key || c.n !== view.n || view.playing) return;
    const box = this.box(c);
    // an open list: the box holds what is typed to search it, not a choice (a typed "year" is not chosen yet)
    if (!chosen && (!box || box.getAttribute("aria-expanded") === "true")) return;
    const name = chosen || box.value;
    const s = (view.state && view.state.state) || {};
    const option = c.options[name];
    if (!option || name === (this.drawn === undefined ? s.colour : this.drawn)) return;
    this.drawn = name;
    const codes = c.codes.subarray(option.offset, option.offset + c.n);
    const state = { ...view.state, codes, state: { ...s, colour: name, palette: option.palette,
      legend: option.legend, labels: [] } };
    view.enqueue(async () => {
      if (this.drawn !== name) return;  // chosen again meanwhile
      await view.applyNow(state, false);
      view.wrap.dataset.answered = String((Number(view.wrap.dataset.answered) || 0) + 1);
      view.wrap.dataset.answeredColour = name;
    });
  }

  /** A state from the page: the colour it draws is the one drawn. */
  confirmed(colour) { this.drawn = colour; }

  destroy() {
    for (const kind of ["click", "keydown", "pointerup"]) document.removeEventListener(kind, this.listen, true);
  }
}
