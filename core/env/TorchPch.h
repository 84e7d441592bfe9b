#pragma once
// Precompiled header shared by every target that includes LibTorch: one
// <torch/torch.h> parse (~12 s, 1.1 GB) instead of one per translation unit.
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
