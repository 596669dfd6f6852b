"""The intermediate representation: the constraint graph, the backend contract, the decoded solution, the passes and the connectivity machinery."""
