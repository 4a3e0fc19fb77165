@_exported import BackstopJSON
