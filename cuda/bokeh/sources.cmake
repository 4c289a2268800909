# Bokeh highlights: compaction + sort in the frame (satdof/bokeh.h). Relative to cuda/.
list(APPEND SATDOF_CUDA_SOURCES bokeh/bokeh.cu)
