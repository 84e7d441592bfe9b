#include "analysis/PruneTypes.h"

#include <stdexcept>
#include <string>

namespace ts {

void checkPruneOptions(const PruneOptions& o) {
    if (!(o.amount >= 0 && o.amount <= 1))
        throw std::invalid_argument("--amount " + std::to_string(o.amount) +
                                    ": expected a share between 0 and 1 (e.g. 0.3)");
    if (o.structured && o.global)
        throw std::invalid_argument("--global applies to unstructured pruning only; structured "
                                    "pruning ranks channels within each layer");
    if (o.norm != 1 && o.norm != 2)
        throw std::invalid_argument("--norm " + std::to_string(o.norm) + ": expected 1 or 2");
}

} // namespace ts
