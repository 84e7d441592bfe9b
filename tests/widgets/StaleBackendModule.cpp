// A TorchBackend module built from other Trainscope sources: its entry points
// are there, its fingerprint is not this tree's. The loader must refuse it
// without calling its backend (which would be nullptr here).
#include <cstdint>

extern "C" __attribute__((visibility("default"))) uint64_t trainscope_torch_backend_abi() {
    return 42;
}

extern "C" __attribute__((visibility("default"))) const void* trainscope_torch_backend() {
    return nullptr;
}
