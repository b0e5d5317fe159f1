import { type FaultSeed, SELF_CHECK_1, TP_GEN_METER, t } from "./fault-seed.ts";

/** Generator, meter and communication faults (codes 1400–1999). */
export const EQUIPMENT_FAULTS: readonly FaultSeed[] = [
  {
    code: 1401,
    level: 2,
    category: "generator",
    triggers: { 1: { key: SELF_CHECK_1, bit: 8 }, 2: { key: TP_GEN_METER, bit: 0 } },
    texts: t(
      [
        "发电机电压或频率超限",
        "发电机输出不稳；发电机容量不足；发电机保护范围设置过窄",
        "检查发电机电压、频率和调速；确认发电机容量满足负载与充电功率；按发电机规格调整保护范围",
      ],
      [
        "Generator voltage or frequency out of range",
        "Unstable generator output; generator too small; protection window set too narrow",
        "Check the generator's voltage, frequency and governor; make sure it is large enough for the load plus charging; set the generator protection limits to its specification",
      ],
      [
        "Tensione o frequenza del generatore fuori range",
        "Uscita del generatore instabile; generatore sottodimensionato; finestra di protezione troppo stretta",
        "Controllare tensione, frequenza e regolatore del generatore; verificare che sia adeguato a carico e ricarica; impostare le soglie secondo le specifiche del generatore",
      ],
      [
        "Tensión o frecuencia del generador fuera de rango",
        "Salida del generador inestable; generador pequeño; ventana de protección demasiado estrecha",
        "Revise tensión, frecuencia y regulador del generador; compruebe que cubra carga y carga de batería; ajuste los límites según la especificación del generador",
      ],
      [
        "発電機の電圧・周波数が範囲外",
        "発電機出力の不安定、発電機容量不足、保護範囲の設定が狭すぎる",
        "発電機の電圧・周波数・調速を確認し、負荷と充電に十分な容量か確認し、保護範囲を発電機仕様に合わせてください",
      ],
    ),
  },
  {
    code: 1402,
    level: 2,
    category: "generator",
    triggers: { 1: { key: SELF_CHECK_1, bit: 9 }, 2: { key: TP_GEN_METER, bit: 1 } },
    texts: t(
      [
        "发电机启动失败",
        "发电机缺油或启动电池亏电；干接点启动信号接线错误",
        "检查发电机燃油和启动电池；核对干接点接线与启动信号设置；手动启动发电机确认其可用",
      ],
      [
        "Generator failed to start",
        "Generator out of fuel or its starter battery flat; dry-contact start wiring wrong",
        "Check the generator's fuel and starter battery; verify the dry-contact wiring and start signal setting; start the generator by hand to confirm it works",
      ],
      [
        "Avvio del generatore fallito",
        "Generatore senza carburante o batteria di avviamento scarica; cablaggio del contatto pulito errato",
        "Controllare carburante e batteria di avviamento; verificare il cablaggio del contatto pulito e l'impostazione del segnale; avviare a mano il generatore per verificarlo",
      ],
      [
        "Fallo de arranque del generador",
        "Generador sin combustible o batería de arranque descargada; cableado del contacto seco incorrecto",
        "Revise el combustible y la batería de arranque; verifique el cableado del contacto seco y la señal de arranque; arranque el generador a mano para comprobarlo",
      ],
      [
        "発電機の始動失敗",
        "燃料切れや始動用バッテリーの放電、無電圧接点の配線誤り",
        "燃料と始動用バッテリーを確認し、無電圧接点の配線と始動信号の設定を確認し、手動始動で発電機の動作を確かめてください",
      ],
    ),
  },
  {
    code: 1501,
    level: 1,
    category: "meter",
    triggers: { 1: { key: SELF_CHECK_1, bit: 10 }, 2: { key: TP_GEN_METER, bit: 4 } },
    texts: t(
      [
        "电表/CT 方向接反",
        "CT 箭头方向装反；电表相序接错",
        "核对 CT 箭头指向电网侧，按说明书检查电表相序；调整后观察购电/售电功率方向是否正确",
      ],
      [
        "Meter or CT reversed",
        "CT fitted the wrong way round; meter phase order wrong",
        "Make sure the CT arrow points towards the grid and check the meter's phase order against the manual; afterwards confirm that import and export show the right direction",
      ],
      [
        "Contatore o TA invertito",
        "TA montato al contrario; sequenza fasi del contatore errata",
        "Verificare che la freccia del TA punti verso la rete e controllare la sequenza fasi secondo il manuale; poi confermare il verso di prelievo e immissione",
      ],
      [
        "Medidor o TC invertido",
        "TC montado al revés; orden de fases del medidor incorrecto",
        "Asegúrese de que la flecha del TC apunte hacia la red y revise el orden de fases según el manual; después confirme el sentido de compra y venta",
      ],
      [
        "メーター・CT の向きが逆",
        "CT の取付方向が逆、メーターの相順誤り",
        "CT の矢印が系統側を向いているか確認し、取扱説明書に従いメーターの相順を点検してください。その後、買電・売電の向きを確認します",
      ],
    ),
  },
  {
    code: 1502,
    level: 2,
    category: "meter",
    triggers: { 1: { key: SELF_CHECK_1, bit: 11 }, 2: { key: "TP_0X04_18", zero: true } },
    texts: t(
      [
        "电表通讯异常",
        "电表 485 通讯线断开或接反；电表地址或波特率不符；电表未上电",
        "检查电表供电和 485 A/B 线接线；确认电表地址与波特率与逆变器设置一致",
      ],
      [
        "Meter communication abnormal",
        "RS-485 cable to the meter broken or A/B swapped; meter address or baud rate mismatch; meter not powered",
        "Check the meter's supply and the RS-485 A/B wiring; make sure the meter address and baud rate match the inverter's setting",
      ],
      [
        "Comunicazione contatore anomala",
        "Cavo RS-485 interrotto o A/B invertiti; indirizzo o baud rate non corrispondenti; contatore non alimentato",
        "Verificare l'alimentazione del contatore e il cablaggio A/B RS-485; far corrispondere indirizzo e baud rate all'impostazione dell'inverter",
      ],
      [
        "Comunicación del medidor anómala",
        "Cable RS-485 cortado o A/B invertidos; dirección o velocidad no coinciden; medidor sin alimentación",
        "Revise la alimentación del medidor y el cableado A/B RS-485; haga coincidir dirección y velocidad con el ajuste del inversor",
      ],
      [
        "メーター通信異常",
        "RS-485 ケーブルの断線や A/B 逆接続、アドレス・ボーレートの不一致、メーターの電源断",
        "メーターの電源と RS-485 の A/B 配線を確認し、アドレスとボーレートをインバーター設定に合わせてください",
      ],
    ),
  },
  {
    code: 1601,
    level: 3,
    category: "communication",
    triggers: { 1: { key: SELF_CHECK_1, bit: 12 }, 2: { key: "TP_0X04_20", zero: true } },
    texts: t(
      [
        "DSP 通讯异常",
        "控制板与 DSP 之间通讯中断；固件版本不匹配；内部排线松动",
        "断电重启逆变器；确认各模块固件版本匹配（必要时重新升级）；仍未恢复请联系售后",
      ],
      [
        "DSP communication error",
        "Link between the control board and the DSP lost; firmware versions do not match; loose internal ribbon cable",
        "Power the inverter off and on; make sure all firmware versions match (upgrade again if needed); contact service if it does not recover",
      ],
      [
        "Errore comunicazione DSP",
        "Collegamento tra scheda di controllo e DSP interrotto; firmware non compatibili; cavo piatto interno allentato",
        "Spegnere e riaccendere l'inverter; verificare che le versioni firmware corrispondano (aggiornare di nuovo se serve); contattare l'assistenza se non si ripristina",
      ],
      [
        "Error de comunicación DSP",
        "Enlace entre la placa de control y el DSP perdido; versiones de firmware incompatibles; cable plano interno suelto",
        "Apague y encienda el inversor; compruebe que las versiones de firmware coincidan (vuelva a actualizar si hace falta); contacte con el servicio si no se recupera",
      ],
      [
        "DSP 通信異常",
        "制御基板と DSP 間の通信断、ファームウェアの不一致、内部フラットケーブルの緩み",
        "インバーターを再起動し、各ファームウェアの版数が一致しているか確認してください（必要なら再更新）。復旧しない場合はサービスへ連絡してください",
      ],
    ),
  },
  {
    code: 1602,
    level: 3,
    category: "communication",
    triggers: { 1: { key: "bmsSign", zero: true }, 2: { key: "TP_0X04_19", zero: true } },
    texts: t(
      [
        "BMS 通讯中断",
        "电池通讯线(CAN/485)未接或接错；电池未开机；电池协议选择错误",
        "确认电池已开机；检查逆变器与电池间通讯线及端口线序；在设置中选择正确的电池品牌/协议",
      ],
      [
        "BMS communication lost",
        "Battery communication cable (CAN/RS-485) missing or wired wrongly; battery switched off; wrong battery protocol selected",
        "Make sure the battery is switched on; check the communication cable and its pin-out between inverter and battery; select the right battery brand/protocol in the settings",
      ],
      [
        "Comunicazione BMS assente",
        "Cavo di comunicazione batteria (CAN/RS-485) mancante o errato; batteria spenta; protocollo batteria errato",
        "Verificare che la batteria sia accesa; controllare il cavo di comunicazione e la piedinatura tra inverter e batteria; selezionare marca/protocollo corretti nelle impostazioni",
      ],
      [
        "Comunicación BMS perdida",
        "Cable de comunicación de la batería (CAN/RS-485) ausente o mal conectado; batería apagada; protocolo de batería incorrecto",
        "Compruebe que la batería esté encendida; revise el cable de comunicación y su asignación de pines; seleccione la marca/protocolo correctos en los ajustes",
      ],
      [
        "BMS 通信断",
        "バッテリー通信線（CAN/RS-485）の未接続・誤配線、バッテリーの電源オフ、バッテリープロトコルの選択誤り",
        "バッテリーの電源を確認し、インバーターとバッテリー間の通信線とピン配置を点検し、設定で正しいバッテリーのメーカー・プロトコルを選択してください",
      ],
    ),
  },
];
