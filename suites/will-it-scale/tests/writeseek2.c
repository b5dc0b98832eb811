#include "testcase.h"

/* sic: upstream's description */
WIS_TESTCASE(writeseek2, "Same file seek+read to same offset", name_buf_prepare, name_rdwr_setup,
	     writeseek1_run);
