#pragma once
// The passes that build a CpGraph (analysis/CriticalPathGraph.h), sharing
// the window's events: CPU passes in CriticalPathGraph.cpp, the GPU pass in
// CriticalPathKernels.cpp. Internal to core/analysis.
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/CriticalPathGraph.h"
#include "trace/LaneIndex.h"

namespace ts {

class CpBuilder {
public:
    CpBuilder(const Trace& trace, const LaunchIndex& launches, const CpWindow& window,
              const CpGraphOptions& options);
    CpGraph build();

private:
    // The window's events.
    void collectCpuEvents();
    void collectDeviceEvents();
    void makeNodes();
    bool hasNodes(int32_t event) const { return graph_.startNode(event) >= 0; }
    // Edges.
    int32_t addEdge(int32_t from, int32_t to, CpEdgeType type, bool zero_weight = false);
    void attribute(int32_t edge, int32_t src_parent);
    void addRuntimeLockEdges();
    void addCallStackEdges();
    void addStackEdges(const std::vector<int32_t>& events);
    bool sharesRuntimeLock(int32_t node_a, int32_t node_b) const;
    void addKernelEdges(); // CriticalPathKernels.cpp
    void classifyEdges();
    void orderNodes();

    bool isLockCall(int32_t event) const;
    bool isSync(int32_t event) const; // Stream Sync, Context Sync, Event Sync, Stream Wait Event
    bool isBlockingCall(int32_t event) const;
    bool isDataLoading(int32_t event) const;
    // An event's times, in HTA's whole microseconds with hta_rounding.
    int64_t startOf(int32_t event) const;
    int64_t endOf(int32_t event) const;

    const Trace& trace_;
    const LaunchIndex& launches_;
    const CpGraphOptions options_;
    CpGraph graph_;
    LaneIndex lanes_;
    std::vector<std::vector<int32_t>> cpu_;      // per lane: window events with dur > 0
    std::vector<int32_t> device_;                // kernels, copies, sets launched in the window
    std::vector<int32_t> syncs_;                 // cuda_sync events of the window
    std::unordered_map<int64_t, int32_t> calls_; // correlation -> runtime call in the window
    std::vector<char> lock_name_, blocking_name_, sync_name_; // by name id
};

} // namespace ts
