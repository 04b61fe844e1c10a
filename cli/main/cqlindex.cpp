// cqlindex: entry point; every sub-command lives in cli/.
#include "cli/commands.h"

int main(int argc, char** argv) { return cqlindex::cli::dispatch(argc, argv); }
