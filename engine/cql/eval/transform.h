#pragma once
// Expansion of CQL transforms (flipcolor, flip, shift, rotate90, ...) into orbits, once per query.
//
// A Transform node of the bound tree becomes a Transform node whose children (role "image") are the distinct
// transformed copies of its body, identity first; nested transforms compose. `notransform` shields its body.
#include "engine/cql/node.h"

namespace cqlindex::cql::eval {

// A copy of `root` with every Transform expanded into its images. Throws CqlError on an unsupported transform.
NodePtr expand_transforms(const Node& root);

// True when two bound trees are the same filter (kind, data and children).
bool same_tree(const Node& a, const Node& b);

}  // namespace cqlindex::cql::eval
