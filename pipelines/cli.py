"""Entry point of the `aceforge` console script.

Each area keeps its commands in its own module, which registers them on the
shared app when imported here.
"""

# Command modules (imported for their registrations).
import pipelines.cli_catalog  # noqa: F401  catalog list / sql
import pipelines.cli_curation  # noqa: F401  score / dedup / select / report
import pipelines.cli_env  # noqa: F401  env list / show / make-db
import pipelines.cli_export_hub  # noqa: F401  export hub
import pipelines.cli_export_trainers  # noqa: F401  export verl / sharegpt / openai
import pipelines.cli_generate  # noqa: F401  generate, model prepare
import pipelines.cli_ingest  # noqa: F401  formats, convert
import pipelines.cli_records  # noqa: F401  validate, show, export-adp
import pipelines.cli_run  # noqa: F401  run, demo
import pipelines.cli_synth  # noqa: F401  synth tasks / backward / evolve
import pipelines.cli_synth_rollouts  # noqa: F401  synth rollouts / code
import pipelines.cli_train  # noqa: F401  train sft / rl, eval
import pipelines.cli_ui  # noqa: F401  ui
import pipelines.cli_verify  # noqa: F401  verify
from pipelines.cli_app import app
from pipelines.cli_common import USAGE, say_error
from schemas.plugins import PluginError


def main() -> None:
    try:
        app()
    except PluginError as exc:  # a plug-in that failed to load: one line naming it, not a traceback
        say_error(str(exc))
        raise SystemExit(USAGE) from None


if __name__ == "__main__":
    main()
