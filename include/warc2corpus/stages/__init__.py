"""The pipeline's stages: what the DAG's tasks and the command line call."""
