"""The plugin registry: one frozen record per algorithm, from any source."""

DEFAULT_TIMEOUT_S = 60.0  #: Seconds importing the plugins may take, unless ``--timeout`` says.
