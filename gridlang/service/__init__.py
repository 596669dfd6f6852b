"""What every front end asks for and reads back: a solve's request, a report as text and as JSON, an error as a record, the schemas, the exit codes."""
