#include "testcase.h"

WIS_TESTCASE(readseek2, "Same file seek+read to same offset", name_buf_prepare, name_rdwr_setup,
	     readseek1_run);
