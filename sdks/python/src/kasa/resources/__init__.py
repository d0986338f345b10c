"""The resources of the Kasa API, each in a sync and an async flavour."""
