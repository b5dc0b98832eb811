#include "testcase.h"

WIS_TESTCASE(fallocate2, "Separate file fallocate", NULL, empty_file_setup, fallocate_run);
