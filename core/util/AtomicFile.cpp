#include "util/AtomicFile.h"

#include <fstream>
#include <stdexcept>
#include <system_error>

#include <unistd.h>

namespace ts {

void writeAtomically(const std::filesystem::path& path,
                     const std::function<void(const std::filesystem::path& tmp)>& write) {
    auto tmp = path;
    tmp += ".tmp-" + std::to_string(::getpid());
    try {
        write(tmp);
        std::filesystem::rename(tmp, path);
    } catch (...) {
        std::error_code ignored;
        std::filesystem::remove(tmp, ignored);
        throw;
    }
}

void writeFileAtomically(const std::filesystem::path& path, const std::string& contents) {
    writeAtomically(path, [&](const std::filesystem::path& tmp) {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << contents;
        out.close();
        if (!out) throw std::runtime_error(path.string() + ": cannot write file");
    });
}

} // namespace ts
