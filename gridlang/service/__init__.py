"""What every front end reads back: a report as text and as JSON, an error as a record, the schemas, the exit codes."""
