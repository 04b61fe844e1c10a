#include "engine/yacpdb/predicate_catalog.h"

namespace cqlindex::yacpdb {

namespace {

using D = Domain;
using K = PredicateKind;
using P = PredicateId;

const std::vector<PredicateInfo>& catalog() {
  static const std::vector<PredicateInfo> table = {
      {P::Matrix, "Matrix", {D::String}, K::Metadata},
      {P::MatrixExtended, "MatrixExtended", {D::String, D::Boolean, D::Boolean, D::Transformations}, K::Metadata},
      {P::Entity, "Entity", {D::RefType, D::String}, K::Metadata},
      {P::Author, "Author", {D::String}, K::Metadata},
      {P::Source, "Source", {D::String}, K::Metadata},
      {P::ReprintType, "ReprintType", {D::String}, K::Metadata},
      {P::SourceId, "SourceId", {D::String}, K::Metadata},
      {P::IssueId, "IssueId", {D::String}, K::Metadata},
      {P::PublishedAfter, "PublishedAfter", {D::Date}, K::Metadata},
      {P::Stip, "Stip", {D::String}, K::Metadata},
      {P::Option, "Option", {D::String}, K::Metadata},
      {P::Keyword, "Keyword", {D::String}, K::Metadata},
      {P::PCount, "PCount", {D::Color}, K::Metadata},
      {P::With, "With", {D::String}, K::Metadata},
      {P::Fairy, "Fairy", {}, K::Metadata},
      {P::Id, "Id", {D::Integer}, K::Metadata},
      {P::Text, "Text", {D::String}, K::Metadata},
      {P::ClosedWalk, "ClosedWalk", {D::Piece, D::Integer, D::Boolean}, K::Analysis},
      {P::TraceBack, "TraceBack", {D::Piece, D::Integer, D::Boolean}, K::Analysis},
      {P::ArealCycle, "ArealCycle", {D::Piece, D::Integer, D::Boolean}, K::Analysis},
      {P::LinearCycle, "LinearCycle", {D::Piece, D::Integer, D::Boolean}, K::Analysis},
      {P::PW, "PW", {D::Integer}, K::Analysis},
      {P::PWPiece, "PWPiece", {D::Piece}, K::Analysis},
      {P::Star, "Star", {D::Piece}, K::Analysis},
      {P::BigStar, "BigStar", {D::Piece}, K::Analysis},
      {P::Cross, "Cross", {D::Piece}, K::Analysis},
      {P::BigCross, "BigCross", {D::Piece}, K::Analysis},
      {P::Wheel, "Wheel", {D::Piece}, K::Analysis},
      {P::Albino, "Albino", {D::Piece}, K::Analysis},
      {P::Pickaninny, "Pickaninny", {D::Piece}, K::Analysis},
      {P::CornerToCorner, "CornerToCorner", {D::Piece}, K::Analysis},
      {P::FourCorners, "FourCorners", {D::Piece}, K::Analysis},
      {P::Excelsior, "Excelsior", {D::Piece, D::Integer}, K::Analysis},
      {P::Phases, "Phases", {}, K::Analysis},
      {P::Twins, "Twins", {}, K::Analysis},
      {P::ZilahiPiece, "ZilahiPiece", {D::Piece, D::Boolean}, K::Analysis},
      {P::Zilahi, "Zilahi", {D::Integer}, K::Analysis},
      {P::Models, "Models", {D::Integer, D::Boolean}, K::Analysis},
      {P::HundredDollar, "HundredDollar", {}, K::Analysis},
  };
  return table;
}

}  // namespace

std::span<const PredicateInfo> all_predicates() { return catalog(); }

const PredicateInfo* find_predicate(std::string_view name) {
  for (const PredicateInfo& p : catalog())
    if (p.name == name) return &p;
  return nullptr;
}

const PredicateInfo& predicate_info(PredicateId id) { return catalog()[static_cast<size_t>(id)]; }

std::string_view domain_name(Domain d) {
  switch (d) {
    case D::Boolean: return "BOOLEAN";
    case D::Color: return "COLOR";
    case D::Date: return "DATE";
    case D::Integer: return "INTEGER";
    case D::RefType: return "REFTYPE";
    case D::Transformations: return "TRANSFORMATIONS";
    case D::Piece: return "PIECE";
    case D::String: return "STRING";
  }
  return "?";
}

}  // namespace cqlindex::yacpdb
