"""ACE curation: Accuracy, Complexity and divErsity scores, explainable dedup, budgeted selection, the ACE report.

The stages, each a function of its config (curation/config.py) over records files:

- ``score`` (score_stage.py): pure column functions (accuracy.py, complexity.py with
  the declared learner of learner.py, diversity.py, optionally loss.py) joined by one
  generic step (score_columns.py) into ``record.scores`` and a flat scores table;
- ``dedup`` (dedup_stage.py, dedup.py, minhash.py): exact, structural, near-duplicate
  text and semantic duplicates, each removal naming its kept twin in an audit table;
- ``select`` (select_stage.py, selection.py, facility_location.py): the SFT set, the
  RL set at the learner's frontier, and the reason for every record left out;
- ``report`` (report.py, report_plots.py): plots and the markdown summary.

Stages read a record's parts through views.py, hold only small per-record facts
(facts.py), and keep embeddings and MinHashes beside their outputs (signatures.py),
so a later stage or a rerun at other thresholds recomputes nothing. Nothing here
imports Dagster or training/.
"""
