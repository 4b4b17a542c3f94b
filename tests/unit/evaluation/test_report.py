"""The result tables: Result rows, the best model per column, markdown."""

import math

from core.evaluation import Result, best_per_column, results_table, to_markdown

# ---------------------------------------------------------------- Result


def test_result_to_dict_has_the_json_keys():
    d = Result("m", "probe", "macro_f1", 0.5, 0.1, 10, "x").to_dict()
    assert d == {"model": "m", "task": "probe", "metric": "macro_f1", "value": 0.5, "std": 0.1, "n": 10, "note": "x"}


def test_results_table_best_per_column_and_markdown():
    results = [
        Result("a", "probe", "macro_f1", 0.5), Result("b", "probe", "macro_f1", 0.7),
        Result("a", "neighbours", "word_shuffle:nn1_ret", 0.9), Result("b", "neighbours", "word_shuffle:nn1_ret", 0.2),
        Result("a", "purity", "purity@10", 0.4),
    ]
    table = results_table(results)
    assert list(table.index) == ["a", "b"]
    assert list(table.columns) == ["probe:macro_f1", "neighbours:word_shuffle:nn1_ret", "purity:purity@10"]
    assert math.isnan(table.loc["b", "purity:purity@10"])
    best = best_per_column(table)
    assert best == {"probe:macro_f1": "b", "neighbours:word_shuffle:nn1_ret": "b", "purity:purity@10": "a"}
    markdown = to_markdown(table).splitlines()
    assert markdown[0] == "| model | probe:macro_f1 | neighbours:word_shuffle:nn1_ret | purity:purity@10 |"
    assert markdown[2] == "| a | 0.500 | 0.900 | **0.400** |"
    assert markdown[3] == "| b | **0.700** | **0.200** | – |"
