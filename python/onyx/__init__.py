"""onyx from Python: run ONNX models like onnxruntime, drive the compiler.

    import numpy as np, onyx
    session = onyx.InferenceSession("model.onnx")      # device="ref" for the CPU
    outputs = session.run(None, {"x": np.ones((1, 8), np.float32)})

See docs/PYTHON.md for the whole API.
"""

from ._onyx import (
    Device,
    DeviceError,
    Error,
    InferenceSession,
    InvalidArgument,
    IRError,
    ModelError,
    NodeArg,
    RunError,
    import_onnx,
    list_devices,
    _set_gpu_faults,
)
from . import ir, passes

__all__ = [
    "Device",
    "DeviceError",
    "Error",
    "InferenceSession",
    "InvalidArgument",
    "IRError",
    "ModelError",
    "NodeArg",
    "RunError",
    "import_onnx",
    "ir",
    "list_devices",
    "passes",
]
