#include "testcase.h"

WIS_TESTCASE(unlink2, "Separate file open/close/unlink in different directories", name_prepare,
	     dir_file_setup, unlink1_run);
