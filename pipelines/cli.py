"""Entry point of the `aceforge` console script.

Each area keeps its commands in its own module, which registers them on the
shared app when imported here.
"""

from pipelines.cli_app import app

# Command modules (imported for their registrations).


def main() -> None:
    app()


if __name__ == "__main__":
    main()
