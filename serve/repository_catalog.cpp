// The served repositories by name.
#include "serve/repository_catalog.h"

#include <filesystem>
#include <iostream>

namespace cqlindex::serve {

std::string repository_name(const std::string& input) { return std::filesystem::path(input).stem().string(); }

std::string name_clash(const std::vector<std::string>& inputs) {
  // A clash is refused rather than renamed ("a-2"): a name in a bookmarked URL must not change with the order
  // of the arguments.
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string name = repository_name(inputs[i]);
    if (name.empty()) return "'" + inputs[i] + "' names no repository file";
    for (size_t j = 0; j < i; ++j)
      if (repository_name(inputs[j]) == name)
        return inputs[j] + " and " + inputs[i] + " would both be served as '" + name +
               "' (a repository is named by its file name without the extension): rename one, or list it in a "
               "NAME.cqlrepo of another name";
  }
  return "";
}

std::optional<RepositoryCatalog> RepositoryCatalog::open(const std::vector<std::string>& inputs,
                                                         const std::string& index_dir) {
  RepositoryCatalog catalog;
  if (const std::string clash = name_clash(inputs); !clash.empty()) {
    std::cerr << "cqlindex serve: " << clash << "\n";
    return std::nullopt;
  }
  for (const std::string& input : inputs) {
    auto repository = exec::ServedRepository::open(input, index_dir);
    if (!repository) return std::nullopt;
    catalog.all_.push_back(NamedRepository{repository_name(input), std::move(repository)});
  }
  return catalog;
}

const NamedRepository* RepositoryCatalog::find(const std::optional<std::string>& name) const {
  if (!name) return &all_.front();
  for (const NamedRepository& r : all_)
    if (r.name == *name) return &r;
  return nullptr;
}

std::string RepositoryCatalog::names() const {
  std::string out;
  for (const NamedRepository& r : all_) out += (out.empty() ? "" : ", ") + r.name;
  return out;
}

}  // namespace cqlindex::serve
