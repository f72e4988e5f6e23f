"""The Sources page: the course's documents by title and author, what the app takes from
each, and the conventions where the app and a source write the same thing differently."""
