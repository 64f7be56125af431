"""The `commandpost` sub-commands (render, gallery, diagrams, db, outbox, scheduler) and the
runner that composes the transports into one process (`run`). Transports never import each
other: what runs beside what is decided here."""
