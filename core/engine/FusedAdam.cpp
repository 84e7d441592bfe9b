#include "engine/FusedAdam.h"

#include <map>

#include "engine/FusedStepSupport.h"
#include "env/TorchCompat.h"

namespace ts {
namespace {

using namespace fused;

// The tensors of one kernel call (one device, one dtype) and each
// parameter's step count after this step.
struct AdamCall {
    std::vector<at::Tensor> params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs;
    std::vector<float> steps;
};

// The kernel reads each parameter's step from a float tensor on its device:
// one host-to-device copy for all of a call's, handed over as views.
std::vector<at::Tensor> stepTensors(const AdamCall& call) {
    const at::Tensor& like = call.params.front();
    auto steps = at::tensor(c10::ArrayRef<float>(call.steps), at::kFloat).to(like.device());
    return steps.unbind(0);
}

// The moments torch::optim::Adam(W) would have made, or those loaded from a
// checkpoint laid out as the parameter.
template <typename State> void prepareState(State& s, const at::Tensor& p, bool amsgrad) {
    auto zeros = [&] { return at::zeros_like(p, at::MemoryFormat::Preserve); };
    s.exp_avg(s.exp_avg().defined() ? laidOutAs(s.exp_avg(), p) : zeros());
    s.exp_avg_sq(s.exp_avg_sq().defined() ? laidOutAs(s.exp_avg_sq(), p) : zeros());
    if (amsgrad)
        s.max_exp_avg_sq(s.max_exp_avg_sq().defined() ? laidOutAs(s.max_exp_avg_sq(), p) : zeros());
}

// Adam's and AdamW's step: they differ in their option and state types and
// in how weight decay applies (`decoupled`: AdamW's).
template <typename State, typename Options, typename Groups, typename StateMap>
void fusedAdamStep(Groups& groups, StateMap& states, bool decoupled, const char* name) {
    using Key = typename StateMap::key_type;
    for (auto& group : groups) {
        const auto& o = static_cast<const Options&>(group.options());
        std::map<DeviceDtype, AdamCall> calls;
        for (auto& p : group.params()) {
            if (!p.grad().defined()) continue;
            requireDense(p, name);
            auto& slot = states[stateKey<Key>(p.unsafeGetTensorImpl())];
            if (!slot) slot = std::make_unique<State>();
            auto& s = static_cast<State&>(*slot);
            prepareState(s, p, o.amsgrad());
            s.step(s.step() + 1);
            AdamCall& call = calls[deviceDtype(p)];
            call.params.push_back(p);
            call.grads.push_back(laidOutAs(p.grad(), p));
            call.exp_avgs.push_back(s.exp_avg());
            call.exp_avg_sqs.push_back(s.exp_avg_sq());
            if (o.amsgrad()) call.max_exp_avg_sqs.push_back(s.max_exp_avg_sq());
            call.steps.push_back(static_cast<float>(s.step()));
        }
        for (auto& [key, call] : calls) {
            compat::FusedAdamArgs args;
            args.lr = o.lr();
            args.beta1 = std::get<0>(o.betas());
            args.beta2 = std::get<1>(o.betas());
            args.eps = o.eps();
            args.weight_decay = o.weight_decay();
            args.amsgrad = o.amsgrad();
            args.decoupled_weight_decay = decoupled;
            compat::fusedAdam(call.params, call.grads, call.exp_avgs, call.exp_avg_sqs,
                              call.max_exp_avg_sqs, stepTensors(call), args);
        }
    }
}

} // namespace

torch::Tensor FusedAdam::step(LossClosure closure) {
    return stepWith(closure, [this] {
        fusedAdamStep<torch::optim::AdamParamState, torch::optim::AdamOptions>(
            param_groups_, state_, /*decoupled=*/false, "Adam");
    });
}

torch::Tensor FusedAdamW::step(LossClosure closure) {
    return stepWith(closure, [this] {
        fusedAdamStep<torch::optim::AdamWParamState, torch::optim::AdamWOptions>(
            param_groups_, state_, /*decoupled=*/true, "AdamW");
    });
}

} // namespace ts
