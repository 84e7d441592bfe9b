#include "backend/BackendModules.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

namespace ts::gui {
namespace {

constexpr const char* kPrefix = "libtrainscope_torch_backend-";

std::filesystem::path ownDirectory() {
    std::error_code error;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
    return error ? std::filesystem::path() : exe.parent_path();
}

std::vector<int> versionParts(const std::string& version) {
    std::vector<int> parts;
    std::istringstream in(version);
    std::string part;
    while (std::getline(in, part, '.'))
        parts.push_back(std::atoi(part.c_str()));
    return parts;
}

bool isModuleName(const std::string& name) {
    return name.rfind(kPrefix, 0) == 0 && name.size() > 3 &&
           name.compare(name.size() - 3, 3, ".so") == 0;
}

// A .json that is missing or unreadable leaves what the name says: the module
// still loads, and says the rest itself once loaded.
void readDescription(BackendModule& m) {
    std::ifstream in(std::filesystem::path(m.path).replace_extension(".json"));
    if (!in) return;
    const nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object()) return;
    const auto text = [&j](const char* key) {
        const auto it = j.find(key);
        return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    if (!text("torch_version").empty()) m.torch_version = text("torch_version");
    m.cuda_version = text("cuda_version");
    m.interface = text("interface");
    const auto kineto = j.find("kineto");
    m.kineto = kineto != j.end() && kineto->is_boolean() && kineto->get<bool>();
    m.described = true;
}

} // namespace

std::string BackendModule::label() const {
    std::string text = "LibTorch " + (torch_version.empty() ? "?" : torch_version);
    if (!described) return text;
    text += " (" + (cuda_version.empty() ? std::string("CPU only") : "CUDA " + cuda_version);
    return text + (kineto ? ", Kineto)" : ", no Kineto)");
}

bool newerTorch(const std::string& a, const std::string& b) {
    return versionParts(a) > versionParts(b);
}

std::vector<std::filesystem::path> backendModuleFolders(std::filesystem::path program_dir) {
    std::vector<std::filesystem::path> folders;
    if (const char* path = std::getenv("TRAINSCOPE_TORCH_BACKEND_PATH"); path && *path) {
        std::istringstream in(path);
        std::string folder;
        while (std::getline(in, folder, ':'))
            if (!folder.empty()) folders.emplace_back(folder);
    }
    if (program_dir.empty()) program_dir = ownDirectory();
    if (!program_dir.empty()) {
        folders.push_back(program_dir);                               // the build tree
        folders.push_back(program_dir / ".." / "lib" / "trainscope"); // installed
    }
    return folders;
}

BackendModule describeBackendModule(const std::filesystem::path& path) {
    BackendModule m;
    // One spelling per file, so that the Settings choice, the modules found
    // and the one loaded compare as paths.
    std::error_code error;
    m.path = std::filesystem::weakly_canonical(std::filesystem::absolute(path, error), error);
    if (error || m.path.empty()) m.path = path;
    const std::string name = path.filename().string();
    if (isModuleName(name))
        m.torch_version = name.substr(std::char_traits<char>::length(kPrefix),
                                      name.size() - 3 - std::char_traits<char>::length(kPrefix));
    readDescription(m);
    return m;
}

std::vector<BackendModule> findBackendModules(const std::vector<std::filesystem::path>& folders) {
    std::vector<BackendModule> modules;
    std::set<std::filesystem::path> seen;
    for (const std::filesystem::path& folder : folders) {
        // Error codes throughout: a folder that vanishes or cannot be read
        // while it is listed is skipped, never thrown out of a Qt slot.
        std::error_code error;
        for (std::filesystem::directory_iterator it(folder, error), end; !error && it != end;
             it.increment(error)) {
            if (!isModuleName(it->path().filename().string())) continue;
            BackendModule m = describeBackendModule(it->path());
            if (seen.insert(m.path).second) modules.push_back(std::move(m));
        }
    }
    // Newest first; of one version, the folder found first keeps its place.
    std::stable_sort(modules.begin(), modules.end(), [](const auto& a, const auto& b) {
        return newerTorch(a.torch_version, b.torch_version);
    });
    return modules;
}

} // namespace ts::gui
