term = "svg"
output = "rap-lemma4"
width = 1440
height = 860
csv = "rap-lemma4.csv"
title = "Congestion distribution of one warp access to a w x w matrix (100000 trials per curve, seed 1) beside NMI Lemma 4's tail bound for rap\n{/*0.85 bound: min(1, 2w e^{k-1}/k^k), k = ceil(c/2) (Lemma 4's Chernoff tail, union over w banks, two half warps); dotted: Lemma 4's threshold e^2 ln w / ln ln w}\n{/*0.85 41 of 41 rap points on or under the bound; access contiguous not drawn: congestion 1 for every layout}"
ymin = 5e-06
array layout[5] = ["raw", "ras", "rap", "pad", "xor"]
panels = 3
array pattern[3] = ["stride", "diagonal", "random"]
array width_w[2] = [32, 256]
array xmax[2] = [35.2, 281.6]
array threshold[2] = [20.6034, 23.9202]
array ones[6] = ["rap, pad, xor", "raw", "", "rap, pad, xor", "raw", ""]
$bound << EOD
1,1
2,1
3,1
4,1
5,1
6,1
7,1
8,1
9,1
10,1
11,0.203585
12,0.203585
13,0.0313517
14,0.0313517
15,0.00418332
16,0.00418332
17,0.00049244
18,0.00049244
19,5.18597e-05
20,5.18597e-05
21,4.94089e-06
22,4.94089e-06
23,4.29778e-07
24,4.29778e-07
25,3.43914e-08
26,3.43914e-08
27,2.5481e-09
28,2.5481e-09
29,1.75766e-10
30,1.75766e-10
31,1.13417e-11
32,1.13417e-11


1,1
2,1
3,1
4,1
5,1
6,1
7,1
8,1
9,1
10,1
11,1
12,1
13,0.250813
14,0.250813
15,0.0334666
16,0.0334666
17,0.00393952
18,0.00393952
19,0.000414878
20,0.000414878
21,3.95271e-05
22,3.95271e-05
23,3.43823e-06
24,3.43823e-06
25,2.75131e-07
26,2.75131e-07
27,2.03848e-08
28,2.03848e-08
29,1.40612e-09
30,1.40612e-09
31,9.07335e-11
32,9.07335e-11
33,5.49984e-12
34,5.49984e-12
35,3.14319e-13
36,3.14319e-13
37,1.69923e-14
38,1.69923e-14
39,8.71496e-16
40,8.71496e-16
41,4.25162e-17
42,4.25162e-17
43,1.97768e-18
44,1.97768e-18
45,8.79039e-20
46,8.79039e-20
47,3.74088e-21
48,3.74088e-21
49,1.52699e-22
50,1.52699e-22
51,5.9886e-24
52,5.9886e-24
53,2.25998e-25
54,2.25998e-25
55,8.21857e-27
56,8.21857e-27
57,2.88386e-28
58,2.88386e-28
59,9.77625e-30
60,9.77625e-30
61,3.20547e-31
62,3.20547e-31
63,1.01765e-32
64,1.01765e-32
65,3.13136e-34
66,3.13136e-34
67,9.3477e-36
68,9.3477e-36
69,2.70957e-37
70,2.70957e-37
71,7.63285e-39
72,7.63285e-39
73,2.09126e-40
74,2.09126e-40
75,5.57685e-42
76,5.57685e-42
77,1.44857e-43
78,1.44857e-43
79,3.66737e-45
80,3.66737e-45
81,9.05547e-47
82,9.05547e-47
83,2.18209e-48
84,2.18209e-48
85,5.13446e-50
86,5.13446e-50
87,1.18036e-51
88,1.18036e-51
89,2.65255e-53
90,2.65255e-53
91,5.8299e-55
92,5.8299e-55
93,1.25377e-56
94,1.25377e-56
95,2.63956e-58
96,2.63956e-58
97,5.44248e-60
98,5.44248e-60
99,1.09951e-61
100,1.09951e-61
101,2.17728e-63
102,2.17728e-63
103,4.2278e-65
104,4.2278e-65
105,8.05308e-67
106,8.05308e-67
107,1.50527e-68
108,1.50527e-68
109,2.762e-70
110,2.762e-70
111,4.97665e-72
112,4.97665e-72
113,8.80834e-74
114,8.80834e-74
115,1.5319e-75
116,1.5319e-75
117,2.61867e-77
118,2.61867e-77
119,4.40118e-79
120,4.40118e-79
121,7.27476e-81
122,7.27476e-81
123,1.1829e-82
124,1.1829e-82
125,1.89266e-84
126,1.89266e-84
127,2.9806e-86
128,2.9806e-86
129,4.62113e-88
130,4.62113e-88
131,7.05524e-90
132,7.05524e-90
133,1.06095e-91
134,1.06095e-91
135,1.57179e-93
136,1.57179e-93
137,2.2946e-95
138,2.2946e-95
139,3.30161e-97
140,3.30161e-97
141,4.68318e-99
142,4.68318e-99
143,6.54996e-101
144,6.54996e-101
145,9.03449e-103
146,9.03449e-103
147,1.22919e-104
148,1.22919e-104
149,1.64994e-106
150,1.64994e-106
151,2.18536e-108
152,2.18536e-108
153,2.8567e-110
154,2.8567e-110
155,3.68609e-112
156,3.68609e-112
157,4.69569e-114
158,4.69569e-114
159,5.90657e-116
160,5.90657e-116
161,7.3374e-118
162,7.3374e-118
163,9.003e-120
164,9.003e-120
165,1.09128e-121
166,1.09128e-121
167,1.30693e-123
168,1.30693e-123
169,1.54667e-125
170,1.54667e-125
171,1.80898e-127
172,1.80898e-127
173,2.09132e-129
174,2.09132e-129
175,2.39009e-131
176,2.39009e-131
177,2.70068e-133
178,2.70068e-133
179,3.01754e-135
180,3.01754e-135
181,3.33432e-137
182,3.33432e-137
183,3.64408e-139
184,3.64408e-139
185,3.93956e-141
186,3.93956e-141
187,4.21346e-143
188,4.21346e-143
189,4.45871e-145
190,4.45871e-145
191,4.66882e-147
192,4.66882e-147
193,4.83818e-149
194,4.83818e-149
195,4.96226e-151
196,4.96226e-151
197,5.03785e-153
198,5.03785e-153
199,5.06318e-155
200,5.06318e-155
201,5.03801e-157
202,5.03801e-157
203,4.96358e-159
204,4.96358e-159
205,4.84254e-161
206,4.84254e-161
207,4.6788e-163
208,4.6788e-163
209,4.47734e-165
210,4.47734e-165
211,4.24394e-167
212,4.24394e-167
213,3.98493e-169
214,3.98493e-169
215,3.70693e-171
216,3.70693e-171
217,3.41653e-173
218,3.41653e-173
219,3.12013e-175
220,3.12013e-175
221,2.82366e-177
222,2.82366e-177
223,2.53244e-179
224,2.53244e-179
225,2.25106e-181
226,2.25106e-181
227,1.98332e-183
228,1.98332e-183
229,1.73216e-185
230,1.73216e-185
231,1.49971e-187
232,1.49971e-187
233,1.28731e-189
234,1.28731e-189
235,1.09559e-191
236,1.09559e-191
237,9.2455e-194
238,9.2455e-194
239,7.73684e-196
240,7.73684e-196
241,6.42063e-198
242,6.42063e-198
243,5.28449e-200
244,5.28449e-200
245,4.31388e-202
246,4.31388e-202
247,3.49303e-204
248,3.49303e-204
249,2.80565e-206
250,2.80565e-206
251,2.23559e-208
252,2.23559e-208
253,1.76727e-210
254,1.76727e-210
255,1.3861e-212
256,1.3861e-212


EOD
# NMI Lemma 4 and Theorem 2: Pr[congestion >= c] of one warp access to a w x w matrix, by Monte Carlo,
# for every layout (one curve each) and access pattern (one panel each) at each w (one row of panels
# each), beside the tail bound that Lemma 4 and the proof of Theorem 2 give for rap, from the
# figure's CSV (w,layout,pattern,congestion,trials,pr_at_least,...). Read before this script:
#   term, output, width, height   png or svg, the image's path without extension, its size
#   csv, title, ymin              the CSV, the figure's title, the lowest probability drawn
#   layout[i]                     the curves;  pattern[p]: the panels of a row (panels of them)
#   width_w[r], xmax[r], threshold[r]   row r's w, its axis' end and Lemma 4's threshold
#   ones[(r - 1) * panels + p]    the layouts whose congestion was always 1 in that panel ("" if none)
#   $bound                        the bound as a step function of integer c up to w, one block per row

if (term eq 'png') {
  set terminal pngcairo size width,height font ',10'
} else {
  set terminal svg size width,height font 'sans,10'
}
set output output.'.'.term
set datafile separator ','
set logscale xy 2
set format y '10^{%L}'
set logscale y 10
set grid
set yrange [ymin:1.5]
set xlabel 'congestion c'
set ylabel 'Pr[congestion >= c]'
set key at graph 0.03, graph 0.72 left top Left reverse font ',9'
set multiplot layout |width_w|,panels title title
# The same colour per layout as in rap-congestion.
array colour[5] = ['#e41a1c', '#377eb8', '#4daf4a', '#984ea3', '#ff7f00']
do for [r = 1:|width_w|] {
  do for [p = 1:panels] {
    # A layout whose congestion is always 1 is the single point (1, 1): named, since the others hide it.
    k = (r - 1) * panels + p
    set title sprintf("w = %d, access: %s", width_w[r], pattern[p]).(ones[k] eq '' ? '' : "\n{/*0.85 congestion always 1 (the point at c = 1): ".ones[k]."}")
    set xrange [0.9:xmax[r]]
    # One legend, in the first panel, where the curves leave its corner free.
    if (k == 1) {
      set key
    } else {
      unset key
    }
    set arrow 1 from threshold[r], graph 0 to threshold[r], graph 1 nohead dt 3 lw 2 lc rgb '#555555'
    # The bound inline: the CSV carries it only up to each curve's largest c, and rap's curve may stop at c = 2.
    plot for [i = 1:|layout|] csv using ($1 == width_w[r] && strcol(2) eq layout[i] && strcol(3) eq pattern[p] ? $4 : 1/0):6 \
           with linespoints lw 2 ps 0.8 pt 2 + 2 * i lc rgb colour[(i - 1) % 5 + 1] title layout[i], \
         $bound index (r - 1) using 1:2 with steps lw 2 dt 2 lc rgb 'black' title 'bound (rap, any access)'
  }
}
unset multiplot
