"""The one way in: what every front end asks for and reads back (reports, their JSON and schemas, the shipped catalogue)."""
