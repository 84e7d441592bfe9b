#pragma once
// Every field of two GpuMetrics equal, for tests that compute them two ways
// (the Overview scope against the full analysis, a saved Overview against the
// analysis it was written from).
#include <string>

#include <gtest/gtest.h>

#include "analysis/GpuMetrics.h"

namespace ts::testing {

inline void expectSameGpuMetrics(const GpuMetrics& a, const GpuMetrics& b,
                                 const std::string& file) {
    EXPECT_EQ(a.tc_used_ratio, b.tc_used_ratio) << file;
    EXPECT_EQ(a.tc_eligible_ops_kernel_ratio, b.tc_eligible_ops_kernel_ratio) << file;
    ASSERT_EQ(a.gpus.size(), b.gpus.size()) << file;
    for (size_t g = 0; g < a.gpus.size(); ++g) {
        const GpuDeviceSummary &p = a.gpus[g], &q = b.gpus[g];
        EXPECT_EQ(p.id, q.id) << file;
        EXPECT_EQ(p.has_properties, q.has_properties) << file;
        EXPECT_EQ(p.name, q.name) << file;
        EXPECT_EQ(p.memory_bytes, q.memory_bytes) << file;
        EXPECT_EQ(p.compute_major, q.compute_major) << file;
        EXPECT_EQ(p.compute_minor, q.compute_minor) << file;
        EXPECT_EQ(p.utilization, q.utilization) << file;
        EXPECT_EQ(p.sm_efficiency, q.sm_efficiency) << file;
        EXPECT_EQ(p.occupancy, q.occupancy) << file;
        EXPECT_EQ(p.tensor_core_ratio, q.tensor_core_ratio) << file;
    }
}

} // namespace ts::testing
