#include "report/RunMessages.h"

#include <fstream>

#include <nlohmann/json.hpp>

#include "report/RunDirectory.h"

namespace ts {

std::vector<RunMessage> loadRunMessages(const std::filesystem::path& dir) {
    std::vector<RunMessage> messages;
    std::ifstream in(dir / run_files::kRunJson);
    const nlohmann::json run = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (!run.is_object() || !run.contains("messages") || !run["messages"].is_array())
        return messages;
    for (const auto& line : run["messages"]) {
        if (!line.is_string()) continue;
        RunMessage m{LogLevel::Info, line.get<std::string>()};
        for (const auto& [prefix, level] :
             {std::pair{"error: ", LogLevel::Error}, std::pair{"warning: ", LogLevel::Warning}})
            if (m.text.rfind(prefix, 0) == 0) {
                m.level = level;
                m.text.erase(0, std::string(prefix).size());
            }
        messages.push_back(std::move(m));
    }
    return messages;
}

} // namespace ts
