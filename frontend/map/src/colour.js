// The Colour by box answered in the browser (issue 42, BENCHMARKS §31f). For the options whose colours are a column
// as it is (label columns, the year, "(none)"), the page sends each option's codes, palette and legend once
// (ui/map/colours.py puts them in the registry entry's `colours`). When the box shows another option, the map draws
// it at once from them, while the page's own run (side column, Topics over time, the link) follows; that run brings
// the same codes and palette, so it draws no second frame (applyNow compares what it would draw with what is drawn).
// The box stays the one place the colour is chosen: a reload, a link or coming back set it, the map follows.
// Topics already computed are options too (BENCHMARKS §31j): "topics:coarse" and "topics:fine", each with its labels
// (plain text at cluster centres, drawn with fillText by the map's overlay, never as HTML); the level drawn is the
// Topic level radio's when it is on the page, else the one the page last had (the head's `topics.level`).

export default class ColourFollower {
  constructor(view, registry) {
    this.view = view;
    this.registry = registry;  // the page-level registry entry of the view's hub (a function: it is looked up late)
    this.check = () => this.follow();  // (no argument: the box's own value)
    // a choice is made with a click on an option or a key (Enter) in the box: the box's value is read once React has
    // drawn it (after the event), and again on the next frame for a slow render
    this.listen = (e) => {
      // a press on an option of the open list: that option, drawn before the page's widget has even drawn it, but
      // in a task after this press's click: the box's change (the page's rerun request) goes out first, not one
      // frame later (a frame drawn here held it back 80-110 ms at 3k papers, BENCHMARKS §31ab)
      if (e.type === "pointerup" && e.button === 0) {
        const chosen = this.pressed(e.target);
        if (chosen) setTimeout(() => this.follow(chosen), 0);
      }
      setTimeout(this.check, 0); requestAnimationFrame(this.check);
    };
    for (const kind of ["click", "keydown", "pointerup"]) document.addEventListener(kind, this.listen, true);
  }

  /** The Colour by box (its input), or null. */
  box(c) { return c && c.control ? document.querySelector(`.st-key-${CSS.escape(c.control)} input`) : null; }

  /** The option the map draws for a choice in the box: a topic level's for "topics" (null: topics not sent). */
  optionName(c, name) {
    const t = c.topics;
    if (!t || name !== t.option) return name;
    let level = t.level;
    const radio = t.control ? document.querySelector(`.st-key-${CSS.escape(t.control)} input[type=radio]:checked`)
      : null;
    const label = radio && radio.closest("label");
    if (label) {
      const text = label.textContent.trim();
      level = Object.keys(t.texts || {}).find((k) => t.texts[k] === text) || level;
    }
    return `${name}:${level}`;
  }

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
    const colour = chosen || box.value;
    const name = this.optionName(c, colour);
    const s = (view.state && view.state.state) || {};
    const option = c.options[name];
    const shown = this.drawn === undefined ? this.key(s.colour, s.level) : this.drawn;
    if (!option || name === shown) return;
    this.drawn = name;
    const codes = c.codes.subarray(option.offset, option.offset + c.n);
    const level = name === colour ? null : name.slice(colour.length + 1);
    const state = { ...view.state, codes, state: { ...s, colour, level, palette: option.palette,
      legend: option.legend, labels: option.labels || [] } };
    view.enqueue(async () => {
      if (this.drawn !== name) return;  // chosen again meanwhile
      await view.applyNow(state, false);
      view.wrap.dataset.answered = String((Number(view.wrap.dataset.answered) || 0) + 1);
      view.wrap.dataset.answeredColour = name;
    });
  }

  /** The option a page state's colour (and topic level) is. */
  key(colour, level) { return level ? `${colour}:${level}` : colour; }

  /** A state from the page: the colour it draws (at its topic level) is the one drawn. */
  confirmed(colour, level) { this.drawn = this.key(colour, level); }

  destroy() {
    for (const kind of ["click", "keydown", "pointerup"]) document.removeEventListener(kind, this.listen, true);
  }
}
