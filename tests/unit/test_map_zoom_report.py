"""The map's zoom reports (ui/map/zoom.py): which map a report was made on, its window, and the flight it followed.
Seen in CI on a busy machine: Whole map pressed, then Find; the Whole map's report reached the server after Find's
flight was asked for, reset the kept window to the whole map, and the map never flew to the found paper."""

from __future__ import annotations

from ui.map.zoom import ZoomReport, read_report, superseded


def test_a_report_names_its_map_window_and_flight():
    assert read_report("v3|0.1,0.2,-0.3,0.4|5") == ZoomReport("v3", "0.1,0.2,-0.3,0.4", 5)
    assert read_report("v3||0") == ZoomReport("v3", "", 0)  # the whole map, made before any flight


def test_a_map_name_holding_bars_is_kept_whole():
    assert read_report("('c', 'tiny')|x|y||2") == ZoomReport("('c', 'tiny')|x|y", "", 2)


def test_a_report_without_its_flight_is_never_superseded():
    report = read_report("v3|0.1,0.2,0.3,0.4|")
    assert report.flight is None and not superseded(report, 9)


def test_a_report_made_before_the_latest_flight_is_superseded_and_one_after_it_is_not():
    assert superseded(read_report("v3||4"), 5)  # Whole map pressed, then Find (flight 5) asked before it arrived
    assert not superseded(read_report("v3|0.1,0.2,0.3,0.4|5"), 5)  # a pan after Find's flight
    assert not superseded(read_report("v3||6"), 5)  # a later flight's view is never older than the session's
